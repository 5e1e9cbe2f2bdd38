// Scripts/release replaces this file while it builds a release binary, with the commit its sources came from, and
// puts it back afterwards: only this target is recompiled. Every other build says nil.
let releaseCommit: String? = nil
