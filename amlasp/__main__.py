"""`python -m amlasp ...`: the same command line as `amlasp ...`."""

from amlasp.cli import main

if __name__ == "__main__":
    main()
