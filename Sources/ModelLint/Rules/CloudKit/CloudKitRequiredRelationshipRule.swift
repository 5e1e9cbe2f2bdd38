public struct CloudKitRequiredRelationshipRule: VersionRule {
    public init() {}

    public static let description = RuleDescription(
        id: "cloudkit-required-relationship", category: .cloudKit, severity: .error,
        summary: "a relationship without optional=\"YES\" in a CloudKit-mirrored model",
        rationale: """
            CloudKit syncs objects independently, so either side of a relationship can arrive first; every relationship must be optional (CloudKit checks the flag itself, so a to-many with minCount 0 counts too), or the store is refused (134060). Checked on models with usedWithCloudKit="YES" on <model> (every entity) or on a <configuration> (its member entities), or with "cloudKit": true for the bundle in .modellint.json.
            """,
        fix: "mark the relationship optional",
        examples: [
            .triggering("""
                <entity name="Car">
                    ↓<relationship name="events" toMany="YES" deletionRule="Cascade" destinationEntity="Event" inverseName="car" inverseEntity="Event"/>
                </entity>
                <entity name="Event">
                    <relationship name="car" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Car" inverseName="events" inverseEntity="Car"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Car"/>
                    <memberEntity name="Event"/>
                </configuration>
                """),
            .passing("""
                <entity name="Car">
                    <relationship name="events" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Event" inverseName="car" inverseEntity="Event"/>
                </entity>
                <entity name="Event">
                    <relationship name="car" optional="YES" minCount="1" maxCount="1" deletionRule="Nullify" destinationEntity="Car" inverseName="events" inverseEntity="Car"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Car"/>
                    <memberEntity name="Event"/>
                </configuration>
                """),
        ])

    public func check(_ model: Model, context: RuleContext) -> [Finding] {
        guard let scope = CloudKitScope.of(model, context: context) else { return [] }
        var findings: [Finding] = []
        for entity in scope.entities(of: model) {
            for relationship in entity.relationships where !relationship.isOptional && !relationship.isTransient {
                findings.append(Finding("\(entity.name).\(relationship.name) is not optional: \(CloudKitScope.refusal) (CloudKit rules are on: \(scope.reason))",
                                        at: relationship.location, entity: entity.name, property: relationship.name))
            }
        }
        return findings
    }
}
