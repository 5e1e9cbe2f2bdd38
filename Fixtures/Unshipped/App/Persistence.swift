import CoreData

/// The app's store: the compiled Model.momd, loaded by name.
let container = NSPersistentContainer(name: "Model")
