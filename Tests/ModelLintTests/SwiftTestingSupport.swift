import Testing
import ModelLintModel

/// Two models equal in everything a rule reads (`modelDifferences`), in a Swift Testing test.
func expectSameModel(
    _ a: Model, _ b: Model, _ label: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    for difference in modelDifferences(a, b) {
        Issue.record("\(label): \(difference)", sourceLocation: sourceLocation)
    }
}
