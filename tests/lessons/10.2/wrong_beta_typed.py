"""Lesson 10.2: beta1 typed in as the numbers 0.85 and 0.15, rather than read from beta1.
# expect: fail | a step folds each gradient into its mean | both shares stayed 0.85 and 0.15 when beta1 changed
"""
import random

# Finished for you, in the course's library (given/train5.py): Value, your autograd of module 7,
# and adam_update(p, lr, m_hat, v_hat, eps), your line of lesson 10.1 that moves p against
# m_hat. Later lessons (10.5, 10.6 and 12.1) ask you for lines of both again.
from given.train5 import Value, adam_update

learning_rate, beta1, eps = 0.1, 0.85, 1e-8
params = [Value(1.0), Value(1.5)]  # x and y, the surface's two parameters
m = [0.0] * len(params)


def noisy_loss():
    """The surface, tilted by a random slope along x and along y: one step's 'name'."""
    x, y = params
    tilt_x, tilt_y = random.gauss(0, 1.0), random.gauss(0, 0.3)
    return 5 * x ** 2 + 0.05 * y ** 2 + tilt_x * x + tilt_y * y


def smoothed_step(lr):
    """Each parameter moves lr in the direction of its running mean of gradients."""
    for i, p in enumerate(params):
        m[i] = 0.85 * m[i] + 0.15 * p.grad
        m_hat = m[i]       # the running mean (lesson 10.4 corrects it for its start at 0)
        v_hat = m[i] ** 2  # its square, for now: so the step is lr long (10.3 changes this)
        adam_update(p, lr, m_hat, v_hat, eps)
        p.grad = 0


def descend(steps, noise_seed=1):
    """From x = 1, y = 1.5, with m at 0: `steps` noisy steps, lr shrinking from learning_rate
    to 0 as in lesson 6.5. Returns the true loss (the surface without its tilt), x and y after
    each step."""
    random.seed(noise_seed)
    params[0].data, params[1].data = 1.0, 1.5
    m[:] = [0.0] * len(params)
    path = []
    for step in range(steps):
        noisy_loss().backward()
        smoothed_step(learning_rate * (1 - step / steps))
        x, y = params[0].data, params[1].data
        path.append((5 * x ** 2 + 0.05 * y ** 2, x, y))
    return path


if __name__ == "__main__":  # Run compares no memory with beta1's; Check tries its own examples
    chosen = beta1
    for beta1 in (0.0, chosen):
        print(f"beta1 = {beta1}: each step follows " + ("its own noisy gradient" if beta1 == 0
                                                         else "the running mean m"))
        for step, (loss, x, y) in enumerate(descend(60), 1):
            if step in (1, 20, 40, 60):
                print(f"  after {step:2d} steps: x = {x:7.4f}   y = {y:7.4f}   true loss {loss:.4f}")
        ends = [abs(descend(60, seed)[-1][2]) for seed in range(1, 21)]
        print(f"  20 runs, each with noise of its own: y ends {sum(ends) / 20:.2f} from the bottom "
              "on average")
    beta1 = chosen
