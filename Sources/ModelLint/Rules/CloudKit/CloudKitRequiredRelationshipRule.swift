import ModelLintModel

package struct CloudKitRequiredRelationshipRule: VersionRule {
    package init() {}

    package static let description = RuleDescription(
        id: "cloudkit-required-relationship", category: .cloudKit, severity: .error,
        summary: "a relationship without optional=\"YES\" in a CloudKit-mirrored model",
        rationale: """
            CloudKit syncs objects independently, so either side of a relationship can arrive first; every relationship must be optional (CloudKit checks the flag itself, so a to-many with minCount 0 counts too), or the store is refused (134060). Checked on models with usedWithCloudKit="YES" on <model> (every entity) or on a <configuration> (its member entities), or with "cloudKit": true for the bundle in .modellint.json.
            """,
        fix: "mark the relationship optional",
        examples: [
            .triggering(
                """
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
            .passing(
                """
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

    package func check(_ model: Model, context: RuleContext) -> [Finding] {
        CloudKitScope.findings(in: model, context: context) { entity in
            entity.relationships.filter { !$0.isOptional && !$0.isTransient }.map {
                ("\(entity.name).\($0.name) is not optional", $0.location, $0.name)
            }
        }
    }
}
