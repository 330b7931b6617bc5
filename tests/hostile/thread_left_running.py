# base: solution
# cli: pass
# browser: skip
import threading
import time

threading.Thread(target=time.sleep, args=(60,)).start()  # not a daemon: it would block exit
