"""Lesson 10.1: eps typed in as the number 1e-8 rather than read from eps, so a change of the
setting never reaches the step.
# expect: fail | a tiny gradient takes a shorter step | what eps = 1e-8 gives
"""
# Finished for you, in the course's library (given/train5.py): Value, your autograd of module 7,
# whose backward() holds a line that lesson 12.1 asks you for again.
from given.train5 import Value

eps = 1e-8  # a tiny number added to a gradient's size, so that a size of 0 is never divided by
params = [Value(1.0), Value(1.5)]  # x and y, the surface's two parameters


def surface_loss():
    x, y = params
    return 5 * x ** 2 + 0.05 * y ** 2


def sgd_step(lr):
    """train4's update: every parameter moves lr times its own gradient."""
    for p in params:
        p.data -= lr * p.grad
        p.grad = 0


def scaled_step(lr):
    """Every parameter moves lr downhill, however big or small its gradient."""
    for p in params:
        m_hat = p.grad       # this step's gradient (lessons 10.2 to 10.4 average it over steps)
        v_hat = p.grad ** 2  # its square: v_hat ** 0.5 is the gradient's size, always positive
        p.data -= lr * m_hat / (v_hat ** 0.5 + 1e-8)
        p.grad = 0


def descend(step_function, lr, steps):
    """From x = 1, y = 1.5: `steps` steps of step_function; the loss and (x, y) after each."""
    params[0].data, params[1].data = 1.0, 1.5
    path = []
    for _ in range(steps):
        loss = surface_loss()
        loss.backward()  # x.grad = 10·x and y.grad = 0.1·y: x's slope is the steep one
        step_function(lr)
        path.append((surface_loss().data, params[0].data, params[1].data))
    return path


if __name__ == "__main__":  # Run races the two steps; Check tries scaled_step on its own examples
    runs = [("SGD, lr 0.1", sgd_step, 0.1), ("SGD, lr 0.21", sgd_step, 0.21),
            ("scaled, lr 0.1", scaled_step, 0.1)]
    print("start: x = 1, y = 1.5, loss", surface_loss().data)
    for label, step_function, lr in runs:
        path = descend(step_function, lr, 30)
        print(f"{label}:")
        for step in (1, 5, 10, 15, 20, 21, 30):
            loss, x, y = path[step - 1]
            print(f"  after {step:2d} steps: x = {x:9.4f}   y = {y:7.4f}   loss {loss:.4f}")
