import MSALCommandLine

await MSALCommand.runMain()
