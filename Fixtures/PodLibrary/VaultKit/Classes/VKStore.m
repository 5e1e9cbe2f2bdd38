#import <CoreData/CoreData.h>

static NSString *const VKModelName = @"Vault";

// The pod's model is compiled into VaultKit.bundle (the podspec's resource_bundles) and loaded from it by a name
// held in a constant, which names no bundle literally.
NSManagedObjectModel *VKLoadModel(void) {
    NSBundle *pod = [NSBundle bundleForClass:NSClassFromString(@"VKStore")];
    NSBundle *resources = [NSBundle bundleWithURL:[pod URLForResource:@"VaultKit" withExtension:@"bundle"]];
    NSURL *url = [resources URLForResource:VKModelName withExtension:@"momd"];
    return [[NSManagedObjectModel alloc] initWithContentsOfURL:url];
}
