"""`python -m amlasp ...`: the same command line as `amlasp ...`."""

from amlasp.launch import main

if __name__ == "__main__":
    main()
