import Foundation
import PackagePlugin

/// Runs `modellint check` on a target's model bundles at every build. Its `path:line:col: error:` lines are
/// what Xcode and SwiftPM show as build diagnostics; an error exits 1 and fails the build.
@main
struct ModelLintBuildToolPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let sourceTarget = target as? SourceModuleTarget else { return [] }
        let bundles = Set(sourceTarget.sourceFiles.compactMap { Self.bundle(containing: $0.url) })
        guard !bundles.isEmpty else { return [] }
        return [Self.command(tool: try context.tool(named: "modellint"), bundles: Array(bundles).sorted { $0.path < $1.path },
                             workingDirectory: context.package.directoryURL)]
    }

    static func bundle(containing file: URL) -> URL? {
        var url = file
        while url.pathComponents.count > 1 {
            if url.pathExtension == "xcdatamodeld" { return url }
            url.deleteLastPathComponent()
        }
        return nil
    }

    static func command(tool: PluginContext.Tool, bundles: [URL], workingDirectory: URL) -> Command {
        .buildCommand(
            displayName: "modellint check \(bundles.map(\.lastPathComponent).joined(separator: ", "))",
            executable: tool.url,
            arguments: ["check", "--no-color"] + bundles.map(\.path),
            environment: ["MODELLINT_WORKING_DIRECTORY": workingDirectory.path],
            inputFiles: bundles,
            outputFiles: [])
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension ModelLintBuildToolPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let bundles = Set(target.inputFiles.compactMap { Self.bundle(containing: $0.url) })
        guard !bundles.isEmpty else { return [] }
        return [Self.command(tool: try context.tool(named: "modellint"), bundles: Array(bundles).sorted { $0.path < $1.path },
                             workingDirectory: context.xcodeProject.directoryURL)]
    }
}
#endif
