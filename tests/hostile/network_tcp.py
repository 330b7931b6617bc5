# base: solution
# cli: pass | tcp: no connection
# browser: skip
# contained: yes
import socket

# The test listens on 127.0.0.1:<PORT> (TCP) and insists that nothing came.
try:
    with socket.create_connection(("127.0.0.1", <PORT>), timeout=3) as connection:
        connection.sendall(b"linebyline-escaped-tcp\n")
    print("tcp: reached the server")
except OSError:
    print("tcp: no connection")
