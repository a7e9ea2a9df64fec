import Shell

Shell.main()
