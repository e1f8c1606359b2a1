import LifeboatCLI
await Lifeboat.main()
