# A learner's file for lesson 4.6: >= in relu's gate
# expect: fail | relu passes d on only where it was on | is always true
# The table of local gradients at work: a miniature of train1.py's first layer, backwards.
#
# train1's model starts from the current token's row of numbers, x = weights['wte'][token]. Its
# first layer makes each hidden number from x with a sum of products, then relu, which keeps a
# number above 0 and turns anything else into 0:
#     h[j] = relu(sum over k of fc1[j][k] * x[k]),   where relu(a) = max(0, a)
# Here there are 3 tokens, x has 2 numbers, and there are 3 hidden numbers.
weights = {'wte': [[1.0, -0.5], [0.5, 2.0], [-1.0, 1.5]],
           'mlp_fc1': [[1.0, 0.5], [-2.0, 1.0], [0.5, -0.25]]}


def linear(x, w):
    return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]


def fc1_backward(token, h, dh):
    """The first layer, backwards: a gradient for every weight of mlp_fc1 and wte.

    token   the current token: x = weights['wte'][token]
    h       the layer's output, h[j] = relu(sum_k fc1[j][k] * x[k])
    dh      dh[j] is how fast the loss moves when h[j] moves
    """
    x = weights['wte'][token]
    grads = {'wte': [[0.0] * len(x) for _ in weights['wte']],
             'mlp_fc1': [[0.0] * len(x) for _ in h]}
    for j, d in enumerate(dh):  # h[j] = relu(sum_k fc1[j][k] * x[k])
        if h[j] >= 0:
            for k, xk in enumerate(x):
                grads['mlp_fc1'][j][k] += d * xk
                grads['wte'][token][k] += d * weights['mlp_fc1'][j][k]
    return grads


def loss_of(h):
    """A made-up loss for the demo, of the three hidden numbers."""
    return (h[0] - 1) ** 2 + 2 * h[1] + 3 * h[2]


def nudged(loss, row, k, nudge=1e-6):
    """Lesson 4.2's nudging, for a loss that reads row[k] by itself: the slope at row[k]."""
    old = row[k]
    row[k] = old + nudge
    loss_up = loss()
    row[k] = old - nudge
    loss_down = loss()
    row[k] = old  # put the weight back exactly
    return (loss_up - loss_down) / (2 * nudge)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    token = 1

    def hidden():
        return [max(0.0, a) for a in linear(weights['wte'][token], weights['mlp_fc1'])]

    def loss_from_weights():
        return loss_of(hidden())

    def loss_from_h():
        return loss_of(h)

    h = hidden()
    print("h:", h, "(h[2] is 0: relu is off there)")
    dh = [nudged(loss_from_h, h, j) for j in range(len(h))]
    print("dh, by nudging each h[j]:", [round(d, 4) for d in dh])
    grads = fc1_backward(token, h, dh)
    for name, row, k in [('mlp_fc1', 0, 1), ('mlp_fc1', 2, 0), ('wte', token, 0), ('wte', token, 1)]:
        direct = nudged(loss_from_weights, weights[name][row], k)
        print(f"{name}[{row}][{k}]: table and chain rule {grads[name][row][k]:7.3f}"
              f"   nudging it itself {direct:7.3f}")
