import MSALCommandLine

MSALCommand.start()
