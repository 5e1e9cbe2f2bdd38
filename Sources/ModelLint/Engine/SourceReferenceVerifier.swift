import ModelLintModel
import ModelLintProjects
import ModelLintRules
import ModelLintGather

/// Judges the references to the model found in the app's Swift files and project generator against the
/// bundles of the run. No I/O: the files are scanned before (SourceReference.scan).
package struct SourceReferenceVerifier: Sendable {
    package var configuration: Configuration
    package var rules: [any SourceReferenceRule]

    package init(configuration: Configuration, rules: [any SourceReferenceRule]) {
        self.configuration = configuration
        self.rules = rules
    }

    /// Findings are reported with the first bundle (references name versions, not bundles).
    package func verify(_ references: [SourceReference], bundles: [ModelBundle]) -> [Diagnostic] {
        guard let first = bundles.first, !references.isEmpty else { return [] }
        let contexts = bundles.map(SourceReferenceContext.init)
        var diagnostics: [Diagnostic] = []
        let facts = ResolutionFacts(configuration: configuration, bundlePath: first.path)
        for reference in references {
            for rule in rules {
                diagnostics += facts.resolve(rule.description, rule.check(reference, bundles: contexts))
            }
        }
        return diagnostics
    }
}
