#!/usr/bin/env python3
"""free_ports.py - N free TCP ports on the loopback, for the test scripts.

    python3 free_ports.py N

Binds N sockets to 127.0.0.1 port 0 at once (so the N ports differ) and
prints the ports the kernel gave them, separated by spaces (t-slurm.sh:
slurmctld's and slurmd's).  The sockets close as it exits: a port is
free then, not reserved.
"""
import socket
import sys


def main():
    ss = [socket.socket() for _ in range(int(sys.argv[1]))]
    for s in ss:
        s.bind(("127.0.0.1", 0))
    print(" ".join(str(s.getsockname()[1]) for s in ss))


if __name__ == "__main__":
    main()
