# A learner's file for lesson 4.5: the weight first, then d
# expect: pass
# Many paths add up, on the miniature of train1.py's last layer from 4.4.
#
# logits[i] = sum over j of fc2[i][j] * h[j]: every number h[j] is used by every logit, so it
# reaches the loss along one path per logit. Its gradient, dh[j], is the sum of their shares.
weights = {'mlp_fc2': [[0.5, -1.0, 0.25], [-0.5, 2.0, 1.0]]}


def linear(x, w):
    return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]


def fc2_backward(h, dlogits):
    """The last layer, backwards: a gradient for each weight, and one for each number of h.

    h          the numbers going into the layer: logits = linear(h, weights['mlp_fc2'])
    dlogits    dlogits[i] is how fast the loss moves when logits[i] moves
    returns    (the weights' gradients, dh) where dh[j] is how fast the loss moves with h[j]
    """
    grads = {'mlp_fc2': [[0.0] * len(h) for _ in dlogits]}
    dh = [0.0] * len(h)
    for i, d in enumerate(dlogits):  # logits[i] = sum_j fc2[i][j] * h[j]
        for j, hj in enumerate(h):
            grads['mlp_fc2'][i][j] += d * hj
            dh[j] = dh[j] + weights['mlp_fc2'][i][j] * d
    return grads['mlp_fc2'], dh


def loss_of(logits):
    """4.4's made-up loss for the demo: 0 when logits[0] is 2 and logits[1] is 0."""
    return (logits[0] - 2) ** 2 + logits[1] ** 2


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
    h = [1.0, 0.5, 2.0]
    logits = linear(h, weights['mlp_fc2'])

    def loss_from_logits():
        return loss_of(logits)

    def loss_from_h():
        return loss_of(linear(h, weights['mlp_fc2']))

    dlogits = [nudged(loss_from_logits, logits, i) for i in range(len(logits))]
    print("dlogits, by nudging each logit:", [round(d, 4) for d in dlogits])
    _, dh = fc2_backward(h, dlogits)
    for j in range(len(h)):
        print(f"h[{j}]:", f"dh[{j}] = {dh[j]:.3f}" if dh else "dh is not made yet",
              f"   nudging h[{j}] itself: {nudged(loss_from_h, h, j):.3f}")
