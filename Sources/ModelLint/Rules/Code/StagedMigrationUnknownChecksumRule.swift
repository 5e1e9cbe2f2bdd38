import ModelLintModel
import ModelLintProjects

package struct StagedMigrationUnknownChecksumRule: SourceReferenceRule {
    package init() {}

    package static let description = RuleDescription(
        id: "staged-migration-unknown-checksum", category: .build, severity: .error,
        summary: "a versionChecksum literal that is no version's checksum",
        rationale: """
            Staged migration (iOS 17+) names each model by its versionChecksum (`NSManagedObjectModelReference(…, \
            versionChecksum:)`). A checksum that is no version's — mistyped, or left from a version that was edited \
            since — makes the staged migration manager meet an unknown model version (Core Data error 134504).
            """,
        fix: "use the checksum `modellint hashes` prints for that version",
        examples: [
            // The checksum of `<entity name="Item"/>`, from Scripts/reference-hashes.py: known; one character off: unknown.
            RuleExample.source(
                [("Near 1", "<entity name=\"Item\"/>")], file: "Stages.swift",
                "let v1 = NSManagedObjectModelReference(model: model, versionChecksum: \"8Yew7Q82xTbfqSzvwInwn8MqyQ//KDp5kBdkt4W+im5=\")",
                triggers: true),
            RuleExample.source(
                [("Near 1", "<entity name=\"Item\"/>")], file: "Stages.swift",
                "let v1 = NSManagedObjectModelReference(model: model, versionChecksum: \"8Yew7Q82xTbfqSzvwInwn8MqyQ//KDp5kBdkt4W+im4=\")",
                triggers: false),
        ])

    package func check(_ reference: SourceReference, bundles: [SourceReferenceContext]) -> [Finding] {
        guard case .checksum(let checksum) = reference.kind, !bundles.contains(where: { $0.checksums[checksum] != nil })
        else { return [] }
        let known = bundles.flatMap { $0.checksums.values }.count
        return [
            Finding(
                "versionChecksum \"\(checksum)\" is the checksum of no version (\(known) known): staged migration meets an unknown model version (134504)",
                at: reference.location)
        ]
    }
}
