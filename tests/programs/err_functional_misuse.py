# Forum question: F.* misuse — "index out of range in self" from nn.Embedding, one_hot on floats,
# softmax without dim, dropout p out of range, bad pad/interpolate arguments, conv_transpose sizes.
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(label, fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn()
            print(label, "->", out)
        except Exception as e:  # noqa: BLE001
            print(label, "->", type(e).__name__, e)
    for w in caught:
        print("   ", w.category.__name__, str(w.message))


emb = nn.Embedding(10, 4)
attempt("embedding index 10", lambda: emb(torch.tensor([1, 10])))
attempt("embedding negative", lambda: emb(torch.tensor([-1])))
attempt("embedding float ids", lambda: emb(torch.tensor([1.0, 2.0])))
attempt("embedding int32 ok", lambda: emb(torch.tensor([1, 2], dtype=torch.int32)).shape)
attempt("embedding padding_idx oob", lambda: nn.Embedding(10, 4, padding_idx=10))
attempt("F.embedding weight 1-D", lambda: F.embedding(torch.tensor([0]), torch.ones(5)))

attempt("one_hot float", lambda: F.one_hot(torch.tensor([0.0, 1.0])))
attempt("one_hot too small", lambda: F.one_hot(torch.tensor([0, 3]), num_classes=3))
attempt("one_hot negative", lambda: F.one_hot(torch.tensor([-1, 1])))
attempt("one_hot ok", lambda: F.one_hot(torch.tensor([0, 2]), num_classes=4))

x = torch.arange(6.).view(2, 3)
attempt("softmax no dim", lambda: F.softmax(x))
attempt("log_softmax no dim", lambda: F.log_softmax(x))
attempt("nn.Softmax() no dim", lambda: nn.Softmax()(x))
attempt("softmax int tensor", lambda: F.softmax(torch.arange(3), dim=0))
attempt("softmax int dtype=float", lambda: F.softmax(torch.arange(3), dim=0, dtype=torch.float32))
attempt("dropout p=1.5", lambda: F.dropout(x, p=1.5))
attempt("nn.Dropout(-0.1)", lambda: nn.Dropout(-0.1))
attempt("dropout p=1 zeros", lambda: F.dropout(x, p=1.0))
attempt("dropout eval", lambda: F.dropout(x, p=0.5, training=False))
attempt("Dropout2d on 2-D", lambda: nn.Dropout2d(0.0)(x).shape)

attempt("pad odd length", lambda: F.pad(x, (1, 1, 1)))
attempt("pad too many", lambda: F.pad(x, (1, 1, 1, 1, 1, 1)))
attempt("pad reflect too big", lambda: F.pad(x.view(1, 2, 3), (3, 3), mode="reflect"))
attempt("pad reflect 1-D", lambda: F.pad(torch.arange(4.), (1, 1), mode="reflect"))
attempt("pad bad mode", lambda: F.pad(x, (1, 1), mode="wrap"))
attempt("pad negative crop", lambda: F.pad(x, (-1, 0)))
attempt("pad value on reflect", lambda: F.pad(x.view(1, 2, 3), (1, 1), mode="reflect", value=1.0))

img = torch.arange(16.).view(1, 1, 4, 4)
attempt("interpolate no size", lambda: F.interpolate(img))
attempt("interpolate both", lambda: F.interpolate(img, size=8, scale_factor=2))
attempt("interpolate bilinear 3-D", lambda: F.interpolate(torch.ones(1, 1, 4), scale_factor=2, mode="bilinear"))
attempt("interpolate bad mode", lambda: F.interpolate(img, scale_factor=2, mode="cubic"))
attempt("interpolate size len", lambda: F.interpolate(img, size=(2, 2, 2)))
attempt("interpolate align nearest", lambda: F.interpolate(img, scale_factor=2, mode="nearest", align_corners=True))
attempt("upsample bilinear", lambda: F.interpolate(img, size=(2, 2), mode="bilinear", align_corners=False))

ct = nn.ConvTranspose2d(1, 1, 3, stride=2)
with torch.no_grad():
    ct.weight.fill_(1.0)
    ct.bias.zero_()
attempt("convT ok", lambda: ct(img).shape)
attempt("convT output_size", lambda: ct(img, output_size=[10, 10]).shape)
attempt("convT output_size bad", lambda: ct(img, output_size=[12, 12]))
attempt("convT output_padding too big", lambda: nn.ConvTranspose2d(1, 1, 3, stride=2, output_padding=2)(img))
attempt("convT 2-D input", lambda: ct(img[0, 0]))
attempt("convT wrong channels", lambda: ct(torch.zeros(1, 2, 4, 4)))
attempt("unfold 3-D", lambda: F.unfold(torch.ones(1, 4, 4), 2).shape)
attempt("unfold 2-D", lambda: F.unfold(torch.ones(4, 4), 2))
attempt("fold bad", lambda: F.fold(torch.ones(1, 4, 5), (4, 4), 2))
attempt("pixel_shuffle bad", lambda: F.pixel_shuffle(torch.ones(1, 3, 2, 2), 2))
attempt("adaptive pool 1-D input", lambda: F.adaptive_avg_pool2d(torch.ones(4), 1))
attempt("max_pool stride 0", lambda: F.max_pool2d(img, 2, stride=0))
attempt("max_pool pad too big", lambda: F.max_pool2d(img, 2, padding=2))
attempt("avg_pool pad too big", lambda: F.avg_pool2d(img, 3, padding=2))
attempt("cosine_similarity dims", lambda: F.cosine_similarity(torch.ones(2, 3), torch.ones(2, 4)))
attempt("normalize p=0", lambda: F.normalize(x, p=0, dim=1))
attempt("linear bias 2-D", lambda: F.linear(x, torch.ones(2, 3), torch.ones(1, 2)).shape)
attempt("gelu approximate bad", lambda: F.gelu(x, approximate="fast"))
attempt("leaky_relu negative", lambda: F.leaky_relu(x, -0.1).shape)
attempt("glu odd dim", lambda: F.glu(x))
