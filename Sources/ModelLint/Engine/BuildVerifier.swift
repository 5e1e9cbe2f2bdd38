import ModelLintModel
import ModelLintCompiled
import ModelLintRules
import ModelLintGather

/// Runs the rules about what ships on a compiled model and its source bundle: the `verify-build` pipeline's rule
/// stage, with no I/O (the compiled model and the bundle are read before it).
package struct BuildVerifier: Sendable {
    package var rules: [any BuildRule]
    package var configuration: Configuration

    package init(configuration: Configuration, rules: [any BuildRule]) {
        self.configuration = configuration
        self.rules = rules
    }

    package func verify(_ build: CompiledModel, against bundle: ModelBundle, settings: BundleSettings?) -> [Diagnostic]
    {
        let source = bundle.readableVersions
        let context = RuleContext(settings: settings, versions: source, migration: configuration.migration)
        let current = bundle.currentVersion.flatMap { version in source.first { $0.name == version.name } }
        var build = build
        if build.isBareModel, let only = build.versions.first {
            // A bare .mom is one version: the source version it was compiled from (equal hashes), else the current
            // one it is meant to be; every other version is one the app cannot migrate from.
            let hashes = only.hashes
            let name = source.first { $0.model.versionHashes.entities == hashes }?.name ?? current?.name ?? only.name
            build.versions[0].name = name
            build.currentVersion = name
        }
        var diagnostics: [Diagnostic] = []
        let facts = ResolutionFacts(configuration: configuration, bundlePath: bundle.path)
        for rule in rules {
            diagnostics += facts.resolve(
                rule.description, rule.check(build, source: source, current: current, context: context))
        }
        return Diagnostic.sortedForOutput(diagnostics)
    }
}
