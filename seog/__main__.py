import sys

from seog.cli import main

sys.exit(main())
