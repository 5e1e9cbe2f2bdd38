import ModelLintSupport
import ModelLintModel

package struct MalformedContentsRule: BundleRule {
    package init() {}

    package static let description = RuleDescription(
        id: "malformed-contents", category: .bundleStructure, severity: .error,
        summary: "a `contents` file that is empty, not well-formed XML, not a Core Data model, or declares a DTD",
        rationale: """
            Xcode cannot open this version, and the model compiler cannot build it, so the app cannot migrate stores \
            of this version. modellint skips the version, and every comparison involving it. A file that declares a \
            DTD or entities is refused before anything is expanded: Xcode never writes one, and expanding one is how \
            hostile XML exhausts memory (billion laughs) or reads local files (XXE). A file the system refuses to \
            read is reported here too, and its fix says how to let modellint read it: the file may be fine, and a \
            sandbox (Xcode's, for a Run Script phase's undeclared inputs) the cause.
            """,
        fix: "repair the file, usually by restoring it from version control",
        examples: [
            RuleExample(versions: [("Near 1", .file(""))], triggers: true, expectedFile: "Near 1.xcdatamodel/contents"),
            RuleExample(
                versions: [("Near 1", .file("<?xml version=\"1.0\"?>\n<model><entity name=\"Thing\">"))],
                triggers: true, expectedFile: "Near 1.xcdatamodel/contents"),
            RuleExample(
                versions: [("Near 1", .file("<?xml version=\"1.0\"?>\n↓<plist version=\"1.0\"/>\n"))], triggers: true),
            RuleExample(
                versions: [
                    (
                        "Near 1",
                        .file("<?xml version=\"1.0\"?>\n↓<!DOCTYPE model [<!ENTITY a \"aaaa\">]>\n<model>&a;</model>\n")
                    )
                ], triggers: true),
            .passing("<entity name=\"Thing\" representedClassName=\"Thing\"/>"),
        ])

    package func check(_ bundle: ModelBundle) -> [Finding] {
        bundle.versions.compactMap { version in
            guard case .malformed(let reason, let location) = version.content else { return nil }
            var finding = Finding(
                "\(version.name) cannot be read as a Core Data model: \(reason). The version is skipped, and so is every comparison with it",
                at: location, version: version.name)
            if reason == FileReader.ReadError.permissionDenied.description {
                // The file may be fine: a sandbox (Xcode's for Run Script phases) or its mode keeps it from modellint.
                finding.fix =
                    "let modellint read it: in an Xcode Run Script phase with user script sandboxing, list it among the phase's input files; otherwise check the file's permissions"
            }
            return finding
        }
    }
}
