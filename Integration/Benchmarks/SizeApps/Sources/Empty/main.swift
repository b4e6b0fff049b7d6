// The baseline: a Swift program that links nothing of the library.
print(CommandLine.arguments.count)
