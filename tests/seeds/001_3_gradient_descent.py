w = torch.tensor(2.0, requires_grad=True)

for step in range(50):
    loss = (3 * w - 12) ** 2
    loss.backward()
    with torch.no_grad():          # update without recording it in the graph
        w -= 0.01 * w.grad
    w.grad.zero_()                 # reset the gradient for the next step

print(round(w.item(), 3))          # approaches 4.0, where 3w - 12 = 0
