# A learner's file for lesson 4.4: the TODO still there
# expect: fail | one weight, one chain | Nothing was added
# The chain rule, on a miniature of train1.py's last layer.
#
# train1's model ends by turning a list of numbers h into one score per possible next token, its
# logits. Each logit is a sum of products: logits[i] = sum over j of fc2[i][j] * h[j]. Here h has
# 3 numbers and there are 2 logits, so weights['mlp_fc2'] is a table of 2 rows of 3 weights.
weights = {'mlp_fc2': [[0.5, -1.0, 0.25], [-0.5, 2.0, 1.0]]}


def linear(x, w):
    return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]


def fc2_grads(h, dlogits, grads):
    """How fast the loss moves when each weight of weights['mlp_fc2'] moves: one position's share.

    h          the numbers going into the layer: logits = linear(h, weights['mlp_fc2'])
    dlogits    dlogits[i] is how fast the loss moves when logits[i] moves
    grads      the gradients so far: grads['mlp_fc2'][i][j] belongs to the weight fc2[i][j].
               In train1 this runs once for each position of a name, always into the same grads,
               so they may already hold the shares of earlier positions. Each call adds its own.
    returns    grads['mlp_fc2']
    """
    for i, d in enumerate(dlogits):  # logits[i] = sum_j fc2[i][j] * h[j]
        for j, hj in enumerate(h):
            # TODO: the chain rule
            pass
    return grads['mlp_fc2']


def loss_of(logits):
    """A made-up loss for the demo: 0 when logits[0] is 2 and logits[1] is 0, above 0 otherwise.
    (train1's real loss, -log p of the next token, needs module 5 first.)"""
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
    h = [1.0, 0.0, 2.0]
    logits = linear(h, weights['mlp_fc2'])

    def loss_from_logits():
        return loss_of(logits)

    def loss_from_weights():
        return loss_of(linear(h, weights['mlp_fc2']))

    dlogits = [nudged(loss_from_logits, logits, i) for i in range(len(logits))]
    print("logits:", logits, "  loss:", loss_of(logits))
    print("dlogits, by nudging each logit:", [round(d, 4) for d in dlogits])
    grads = {'mlp_fc2': [[0.0] * len(h) for _ in dlogits]}  # no position has added a share yet
    fc2 = fc2_grads(h, dlogits, grads)
    for i in range(2):
        for j in range(3):
            direct = nudged(loss_from_weights, weights['mlp_fc2'][i], j)
            print(f"fc2[{i}][{j}]: chain rule {fc2[i][j]:7.3f}   nudging the weight itself {direct:7.3f}")

    # In train1 the next position of the name adds its own shares into the same grads.
    so_far = fc2[1][2]
    h2, dlogits2 = [0.5, 1.0, 2.0], [-1.0, 0.5]  # made-up numbers for a second position
    fc2_grads(h2, dlogits2, grads)
    print(f"a second position, h = {h2} and dlogits = {dlogits2}, adds its shares:")
    print(f"fc2[1][2]: {so_far:.3f} so far + {dlogits2[1]} * {h2[2]} = {grads['mlp_fc2'][1][2]:.3f}")
