lr = 0.1  # learning rate: how big each step is
for step in range(201):
    # Forward pass: PyTorch records every op into a graph.
    y_hat = w * x + b
    loss = ((y_hat - y) ** 2).mean()          # mean squared error

    # Backward pass: walk the graph, fill w.grad and b.grad.
    loss.backward()

    # Update: step against the gradient. no_grad() = "don't record this".
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad

    # Gradients ACCUMULATE (+=) on every backward(). Reset them, or the next
    # step adds this step's gradient on top. The Trainer in post 5 calls this
    # optimizer.zero_grad() at the start of every step for the same reason.
    w.grad.zero_()
    b.grad.zero_()

    if step % 40 == 0:
        print(f"step {step:3d} | loss {loss.item():.4f} | w {w.item():.3f} | b {b.item():.3f}")

print(f"learned: y = {w.item():.2f} x {b.item():+.2f}   (true: y = 2.00 x -1.00)")
