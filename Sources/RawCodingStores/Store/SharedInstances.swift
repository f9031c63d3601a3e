/// One object per name in a process, shared while anyone holds it: how store instances on the
/// same backing storage (a suite, a directory) find what they share.
package final class SharedInstances<Object: AnyObject & Sendable>: Sendable {
    private struct Weak {
        weak var object: Object?
    }

    private let objects = Locked<[String: Weak]>([:])

    package init() {}

    /// The live object for `name`, or a new one from `make`.
    package func object(for name: String, make: () -> Object) -> Object {
        objects.withLock { objects in
            if let existing = objects[name]?.object { return existing }
            objects = objects.filter { $0.value.object != nil }
            let created = make()
            objects[name] = Weak(object: created)
            return created
        }
    }
}
