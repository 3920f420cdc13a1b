from torch import nn

model = nn.Linear(4, 2)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 4), torch.randint(0, 2, (8,))

for epoch in range(3):
    pred = model(x)              # graph is built here, node by node
    loss = loss_fn(pred, y)      # graph now runs from x through to loss

    optimizer.zero_grad()        # every parameter .grad is set to zero
    loss.backward()              # graph traversed in reverse, .grad populated, graph freed
    optimizer.step()             # parameters updated using .grad, no graph involved

    print(f"epoch {epoch} | loss {loss.item():.4f}")
