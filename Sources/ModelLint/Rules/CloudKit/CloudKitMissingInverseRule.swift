public struct CloudKitMissingInverseRule: VersionRule {
    public init() {}

    public static let description = RuleDescription(
        id: "cloudkit-missing-inverse", category: .cloudKit, severity: .error,
        summary: "a relationship without an inverse in a CloudKit-mirrored model",
        rationale: """
            CloudKit mirrors relationships through their inverses; NSPersistentCloudKitContainer refuses to load a store whose model has a relationship without one (134060). Checked on models with usedWithCloudKit="YES" on <model> (every entity) or on a <configuration> (its member entities), or with "cloudKit": true for the bundle in .modellint.json.
            """,
        fix: "add the inverse relationship on the destination entity",
        examples: [
            .triggering("""
                <entity name="Car">
                    ↓<relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person"/>
                </entity>
                <entity name="Person"/>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Car"/>
                    <memberEntity name="Person"/>
                </configuration>
                """),
            .passing("""
                <entity name="Car">
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cars" inverseEntity="Person"/>
                </entity>
                <entity name="Person">
                    <relationship name="cars" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Car" inverseName="owner" inverseEntity="Car"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Car"/>
                    <memberEntity name="Person"/>
                </configuration>
                """),
        ])

    public func check(_ model: Model, context: RuleContext) -> [Finding] {
        guard let scope = CloudKitScope.of(model, context: context) else { return [] }
        var findings: [Finding] = []
        for entity in scope.entities(of: model) {
            for relationship in entity.relationships where relationship.inverseName?.isEmpty ?? true {
                findings.append(Finding("\(entity.name).\(relationship.name) has no inverse: \(CloudKitScope.refusal) (CloudKit rules are on: \(scope.reason))",
                                        at: relationship.location, entity: entity.name, property: relationship.name))
            }
        }
        return findings
    }
}
