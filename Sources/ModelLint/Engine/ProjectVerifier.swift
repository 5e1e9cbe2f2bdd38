import ModelLintModel
import ModelLintProjects
import ModelLintRules
import ModelLintGather

/// Judges the Xcode projects that reference a bundle: for each, its version group against the bundle on disk.
/// No I/O: the projects are read before.
package struct ProjectVerifier: Sendable {
    package var configuration: Configuration
    package var rules: [any ProjectRule]

    package init(configuration: Configuration, rules: [any ProjectRule]) {
        self.configuration = configuration
        self.rules = rules
    }

    /// `bundlePath`: the bundle's path relative to the folder holding the `.xcodeproj`. A project without a
    /// version group for the bundle says nothing about it.
    package func verify(_ project: XcodeProject, bundle: ModelBundle, bundlePath: String) -> [Diagnostic] {
        guard let group = project.group(forBundleAt: bundlePath) else { return [] }
        var diagnostics: [Diagnostic] = []
        let facts = ResolutionFacts(configuration: configuration, bundlePath: bundle.path)
        for rule in rules {
            diagnostics += facts.resolve(rule.description, rule.check(group, project: project.path, bundle: bundle))
        }
        return diagnostics
    }
}
