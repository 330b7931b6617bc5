# base: solution
# cli: pass | udp: done
# browser: skip
# contained: yes
import socket

# The test listens on 127.0.0.1:<PORT> (UDP) and insists that nothing came. A datagram has no
# answer, so the file cannot tell whether it arrived: only the listener can.
for address in (("127.0.0.1", <PORT>), ("localhost", <PORT>)):
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
            sender.sendto(b"linebyline-escaped-udp\n", address)
    except OSError:
        pass
print("udp: done")
