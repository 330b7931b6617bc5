"""Lesson 4.1, the slope rounded to 6 decimals, as the demo prints it: right on every example
of the lesson, whose slopes have few digits, but not on a slope with many."""
# expect: fail | slope_between on new curves, twice each | returned 0.374304, where ours returns 0.37430448800506244: the two agree in their first 6 digits
# Rise over run: how steep a curve is between two points.
#
# train1.py checks its gradients with the line you write here. It measures its loss at two
# points, a small nudge to each side of a weight, and divides the rise by the run. Here the curve
# is any function f, and the two heights keep train1's names: loss_down on the left, loss_up on
# the right.


def slope_between(f, x, nudge):
    """Rise over run of f between the points x - nudge and x + nudge."""
    loss_down = f(x - nudge)   # the height of the left point
    loss_up = f(x + nudge)     # the height of the right point
    slope = round((loss_up - loss_down) / (2 * nudge), 6)  # tidy, like the demo
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
