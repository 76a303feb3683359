/// A one-shot latch for tests that hold one side of a race in place (with ``FaultInjectingLedger``'s holds):
/// ``wait()`` parks until ``open()``, and ``arrived`` tells that something reached it.
package actor TestLatch {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// Whether ``wait()`` was called.
    package private(set) var arrived = false

    package init() {}

    /// Parks until ``open()`` (returns at once after it).
    package func wait() async {
        arrived = true
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Lets every waiter, and every later one, through.
    package func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters = []
    }
}
