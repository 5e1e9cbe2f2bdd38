/// The version every report and lock file names.
package enum ModelLintVersion {
    package static let current = "0.1.0"
}
