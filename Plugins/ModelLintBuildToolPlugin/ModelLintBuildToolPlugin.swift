import Foundation
import PackagePlugin

/// Runs `modellint check` on a target's model bundles when they change. Its `path:line:col: error:` lines are
/// what Xcode and SwiftPM show as build diagnostics; an error exits 1 and fails the build. The build system
/// reruns a command when an input file changes or its output is missing, so the inputs are the files inside the
/// bundles (a folder's timestamp does not change when a file in it is edited) plus the configuration and lock
/// file, and the output is a stamp modellint writes only after a passing run. The stamp is a `.swift` file holding
/// one comment: SwiftPM compiles a Swift output (to nothing) and copies any other output into the target's resource
/// bundle, where a stamp would ship inside the app.
@main
struct ModelLintBuildToolPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let sourceTarget = target as? SourceModuleTarget else { return [] }
        let bundles = Set(sourceTarget.sourceFiles.compactMap { Self.bundle(containing: $0.url) })
        guard !bundles.isEmpty else { return [] }
        return [
            Self.command(
                tool: try context.tool(named: "modellint"), bundles: Array(bundles).sorted { $0.path < $1.path },
                root: context.package.directoryURL,
                stamp: context.pluginWorkDirectoryURL.appendingPathComponent("\(target.name).modellint-stamp.swift"))
        ]
    }

    static func bundle(containing file: URL) -> URL? {
        var url = file
        while url.pathComponents.count > 1 {
            if url.pathExtension == "xcdatamodeld" { return url }
            url.deleteLastPathComponent()
        }
        return nil
    }

    /// Every file the verdict depends on: each version's `contents`, the pointer, and the nearest configuration
    /// and lock file above the bundles (within `root`).
    static func inputs(bundles: [URL], root: URL) -> [URL] {
        let fm = FileManager.default
        var files: [URL] = []
        for bundle in bundles {
            files.append(bundle.appendingPathComponent(".xccurrentversion"))
            for name in (try? fm.contentsOfDirectory(atPath: bundle.path)) ?? [] where name.hasSuffix(".xcdatamodel") {
                files.append(bundle.appendingPathComponent(name).appendingPathComponent("contents"))
            }
            var folder = bundle.deletingLastPathComponent()
            while folder.path.hasPrefix(root.path) {
                for name in [".modellint.json", "modellint.lock"]
                where fm.fileExists(atPath: folder.appendingPathComponent(name).path) {
                    files.append(folder.appendingPathComponent(name))
                }
                if folder.path == root.path { break }
                folder.deleteLastPathComponent()
            }
        }
        return Array(Set(files)).filter { fm.fileExists(atPath: $0.path) }.sorted { $0.path < $1.path }
    }

    static func command(tool: PluginContext.Tool, bundles: [URL], root: URL, stamp: URL) -> Command {
        .buildCommand(
            displayName: "modellint check \(bundles.map(\.lastPathComponent).joined(separator: ", "))",
            executable: tool.url,
            arguments: ["check", "--no-color", "--stamp", stamp.path] + bundles.map(\.path),
            environment: ["MODELLINT_WORKING_DIRECTORY": root.path],
            inputFiles: inputs(bundles: bundles, root: root),
            outputFiles: [stamp])
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension ModelLintBuildToolPlugin: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            let bundles = Set(target.inputFiles.compactMap { Self.bundle(containing: $0.url) })
            guard !bundles.isEmpty else { return [] }
            return [
                Self.command(
                    tool: try context.tool(named: "modellint"), bundles: Array(bundles).sorted { $0.path < $1.path },
                    root: context.xcodeProject.directoryURL,
                    stamp: context.pluginWorkDirectoryURL.appendingPathComponent(
                        "\(target.displayName).modellint-stamp.swift"))
            ]
        }
    }
#endif
