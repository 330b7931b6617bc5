"""Lesson 4.1, slopes remembered by their x and nudge, to save measuring twice: the same x and
nudge on another curve gives back the first curve's slope."""
# expect: fail | slope_between on new curves, twice each | where 3 * x + 1 has slope 3, but another curve
# Rise over run: how steep a curve is between two points.
#
# train1.py checks its gradients with the line you write here. It measures its loss at two
# points, a small nudge to each side of a weight, and divides the rise by the run. Here the curve
# is any function f, and the two heights keep train1's names: loss_down on the left, loss_up on
# the right.


measured = {}  # (x, nudge) -> slope: each slope is measured only once


def slope_between(f, x, nudge):
    """Rise over run of f between the points x - nudge and x + nudge."""
    if (x, nudge) in measured:
        return measured[(x, nudge)]
    loss_down = f(x - nudge)   # the height of the left point
    loss_up = f(x + nudge)     # the height of the right point
    slope = (loss_up - loss_down) / (2 * nudge)
    measured[(x, nudge)] = slope
    return slope


def line(x):
    return 3 * x + 1


def square(x):
    return x ** 2


def cube(x):
    return x ** 3


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    # round(..., 6) hides the last few digits, where decimal numbers are never stored exactly
    print("3x + 1 between x = 1 and x = 3:    ", round(slope_between(line, 2, 1), 6))
    print("3x + 1 between x = 4.9 and x = 5.1:", round(slope_between(line, 5, 0.1), 6))
    for nudge in (1, 0.1, 0.001):
        print(f"x ** 3 around x = 2, nudge {nudge}:", round(slope_between(cube, 2, nudge), 6))
    for x in (-1, 1, 2, 3):
        print(f"x ** 2 around x = {x}:", round(slope_between(square, x, 0.001), 6))
