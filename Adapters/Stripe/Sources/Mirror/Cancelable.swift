public import Foundation

/// `SCPCancelable`: stops an operation in progress (discovery, collection, a reader update, a reconnect…).
///
/// The SDK creates these; here the backend does, with the two closures that make up its behaviour.
public class Cancelable: NSObject {
    private let isCompleted: () -> Bool
    private let cancelOperation: (@escaping ErrorCompletionBlock) -> Void

    /// Creates the handle for an operation the backend runs: `isCompleted` answers ``completed``; `cancel` is asked to
    /// cancel and must call its completion exactly once (since 5.0 every cancel gets its own completion).
    package init(
        surface: SurfaceConstruction, isCompleted: @escaping () -> Bool,
        cancel: @escaping (@escaping ErrorCompletionBlock) -> Void
    ) {
        self.isCompleted = isCompleted
        self.cancelOperation = cancel
        super.init()
    }

    /// `SCPCancelable.completed`: once true, `cancel` fails.
    public var completed: Bool {
        isCompleted()
    }

    /// `-cancel:`. The completion gets an error if the operation cannot be canceled (e.g. already completed), else nil.
    public func cancel(_ completion: @escaping ErrorCompletionBlock) {
        cancelOperation(completion)
    }

    /// `-cancel:` as Swift imports it `async`.
    public func cancel() async throws {
        try await surfaceAsync { completion in cancel(completion) }
    }
}
