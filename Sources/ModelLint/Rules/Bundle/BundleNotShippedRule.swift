import ModelLintModel

package struct BundleNotShippedRule: BundleRule {
    package init() {}

    private static let item =
        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"

    package static let description = RuleDescription(
        id: "bundle-not-shipped", category: .bundleStructure, severity: .note,
        summary:
            "a bundle that nothing builds: no Xcode project, CocoaPods spec, package manifest, project spec or code references it, or it sits in a documentation or test-fixture folder",
        rationale: """
            Only a bundle that a build compiles reaches a device. A model kept in the repository after the app moved \
            on, a copy under `.github` or `docs` used as an illustration, or a test fixture of a tool's own tests has \
            no stores to protect: its findings describe migrations that never run, so they are reported as notes. \
            A CocoaPods spec ships the bundles its `resources`, `resource_bundles` or `source_files` patterns list; \
            a spec whose patterns are computed in Ruby rather than written out leaves the question open, and the \
            bundle is judged as shipped. modellint tells only for a bundle its search found (one named on the command \
            line is always judged), and only in a repository with an Xcode project: without one, nothing says what \
            builds.
            """,
        fix:
            "delete the bundle if nothing uses it, or reference it where it is built; `--include-unshipped` (or `\"includeUnshipped\": true`) judges it at full severity",
        examples: [
            RuleExample(versions: [("Near 1", .model(item))], triggers: true, expectedFile: "../Near.xcdatamodeld")
                .unshipped("it is in a docs folder (documentation or test fixtures), which no build ships")
                .expectingMessage(
                    "Near.xcdatamodeld is not shipped: it is in a docs folder (documentation or test fixtures), which no build ships; its other findings are notes"
                ),
            RuleExample(versions: [("Near 1", .model(item))], triggers: false),
        ])

    package func check(_ bundle: ModelBundle) -> [Finding] {
        guard let reason = bundle.unshippedReason else { return [] }
        return [
            Finding(
                "\(bundle.name).xcdatamodeld is not shipped: \(reason); its other findings are notes",
                at: SourceLocation(file: bundle.path))
        ]
    }
}
