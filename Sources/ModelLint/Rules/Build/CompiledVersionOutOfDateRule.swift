import ModelLintModel
import ModelLintCompiled

package struct CompiledVersionOutOfDateRule: BuildRule {
    package init() {}

    package static let description = RuleDescription(
        id: "compiled-version-out-of-date", category: .build, severity: .error,
        summary: "a compiled version's entity hashes differ from its source version's",
        rationale: """
            Core Data decides whether a store needs migrating, and from which model, by comparing entity version \
            hashes. A compiled version whose hashes are not the source version's was built from other model files: a \
            stale build product, or a committed test fixture that no longer matches the model it claims to be, so the \
            migration tests it feeds prove nothing. The hashes compared are the .mom's own (Core Data loads a store's \
            source model from it; Xcode's record in VersionInfo.plist only for a version with no readable .mom) and \
            the ones modellint computes from the source, exactly as Core Data does. A VersionInfo.plist that records \
            other hashes than its .mom is reported too: Core Data finds a store's source model through that record.
            """,
        fix: "rebuild, or regenerate the fixture",
        examples: [
            RuleExample.compiled(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    )
                ],
                build: .init(
                    versions: [
                        (
                            "Near 1",
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        )
                    ], current: "Near 1"),
                triggers: true, expectedFile: "../Near.momd/Near 1.mom"),
            RuleExample.compiled(
                [
                    (
                        "Near 1",
                        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/></entity>"
                    )
                ],
                build: .init(
                    versions: [
                        (
                            "Near 1",
                            "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        )
                    ], current: "Near 1"), triggers: false),
        ])

    package func check(_ build: CompiledModel, source: [VersionRef], current: VersionRef?, context: RuleContext)
        -> [Finding]
    {
        build.versions.flatMap { version -> [Finding] in
            guard let compiled = version.hashes, let origin = source.first(where: { $0.name == version.name }) else {
                return []
            }
            var findings: [Finding] = []
            let expected = origin.model.versionHashes.entities
            if compiled != expected {
                // A .mom holding another version's model (swapped, or copied over) says whose it is.
                let whose =
                    source.first { $0.name != version.name && $0.model.versionHashes.entities == compiled }
                    .map { " (it holds \($0.name)'s model)" } ?? ""
                findings.append(
                    Finding(
                        "\(version.name) in \(build.path) was compiled from other model files than \(origin.contentsPath)\(whose): its entity hashes differ for \(Self.differences(compiled, expected, ("compiled", "in the build"), ("in the source", "in the source")))",
                        at: BuildText.compiledFile(version), version: version.name))
            }
            if let (file, recorded) = version.recordDisagreement {
                // Core Data finds a store's source model through VersionInfo.plist's hashes, then loads the .mom.
                findings.append(
                    Finding(
                        "\(build.path)/VersionInfo.plist records other hashes for \(version.name) than its .mom has: \(Self.differences(file, recorded, ("in the .mom", "in the .mom"), ("recorded", "recorded")))",
                        at: BuildText.compiledFile(version), version: version.name))
            }
            return findings
        }
    }

    /// Entity by entity, how two sets of hashes differ; each side's label for a hash and for an entity only it has.
    static func differences(
        _ a: [String: [UInt8]], _ b: [String: [UInt8]], _ aLabels: (hash: String, only: String),
        _ bLabels: (hash: String, only: String)
    ) -> String {
        let names = Set(a.keys).union(b.keys).sorted(by: CoreDataHash.precedes)
        let differing = names.filter { a[$0] != nil && b[$0] != nil && a[$0] != b[$0] }
        let onlyB = names.filter { a[$0] == nil }
        let onlyA = names.filter { b[$0] == nil }
        var parts: [String] = []
        if !differing.isEmpty {
            parts.append(
                differing.map {
                    "\($0) (\(BuildText.base64(a[$0])) \(aLabels.hash), \(BuildText.base64(b[$0])) \(bLabels.hash))"
                }.joined(separator: ", "))
        }
        if !onlyB.isEmpty { parts.append("\(BuildText.list(onlyB)) only \(bLabels.only)") }
        if !onlyA.isEmpty { parts.append("\(BuildText.list(onlyA)) only \(aLabels.only)") }
        return parts.joined(separator: "; ")
    }
}
