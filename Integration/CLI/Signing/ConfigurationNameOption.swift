import ArgumentParser

/// `--name`: the configuration a signature is made for, shared by `sign`, `verify` and `serve --sign-with`.
struct ConfigurationNameOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The configuration the signature is for: the name the app's client keeps it under (cache(_:name:); "
                + "default unless set). A client refuses a payload signed for another name.",
            valueName: "configuration"))
    var name = "default"
}
