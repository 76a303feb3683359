import Foundation

/// Installs the ``SurfaceBackend`` that gives `StripeTerminalSurface` its behaviour. See ``SurfaceBackend`` for the seam.
package enum SurfaceBackendSlot {
    /// Installs `backend` for the whole process and starts afresh: `Terminal.shared` and the log listener are forgotten,
    /// as if the app had been relaunched. Replaces any backend installed before.
    package static func install(_ backend: any SurfaceBackend) {
        SurfaceRuntime.state.withLock { state in
            state = SurfaceRuntime.State(backend: backend)
        }
    }

    /// Removes the backend (and forgets `Terminal.shared`): every call that needs behaviour fails loudly again.
    package static func uninstall() {
        SurfaceRuntime.state.withLock { state in
            state = SurfaceRuntime.State(backend: nil)
        }
    }

    /// The installed backend, if any.
    package static var installed: (any SurfaceBackend)? {
        SurfaceRuntime.state.withLock { $0.backend }
    }

    /// The listener the app passed to `Terminal.setLogListener(_:)`, for a backend that writes SDK logs.
    package static var logListener: LogListenerBlock? {
        SurfaceRuntime.state.withLock { $0.logListener?.value }
    }
}

/// The surface's process-wide state: the backend, `Terminal.shared`, and the log listener. Not public API.
enum SurfaceRuntime {
    struct State {
        var backend: (any SurfaceBackend)?
        /// Non-Sendable SDK objects held in process-wide state, as the SDK's singleton holds them.
        var sharedTerminal: UncheckedSendableBox<Terminal>?
        var logListener: UncheckedSendableBox<LogListenerBlock>?

        init(backend: (any SurfaceBackend)?) {
            self.backend = backend
        }
    }

    static let state = LockedState(State(backend: nil))

    /// The installed backend; without one, fails loudly naming the member that needed it.
    static func backend(for member: String) -> any SurfaceBackend {
        guard let backend = state.withLock({ $0.backend }) else {
            preconditionFailure("StripeTerminalSurface: no backend installed (\(member) needs one; see SurfaceBackend)")
        }
        return backend
    }

    /// `Terminal.initWithTokenProvider…`: the first call creates the singleton; every call reaches the backend.
    static func initializeTerminal(
        tokenProvider: any ConnectionTokenProvider, delegate: (any TerminalDelegate)?,
        offlineDelegate: (any OfflineDelegate)?, logLevel: LogLevel
    ) {
        let (terminal, isRepeatedCall): (Terminal, Bool) = state.withLock { state in
            guard let backend = state.backend else {
                preconditionFailure(
                    "StripeTerminalSurface: no backend installed (Terminal.initWithTokenProvider needs one; see SurfaceBackend)"
                )
            }
            if let existing = state.sharedTerminal {
                return (existing.value, true)
            }
            let terminal = Terminal(surface: .backend, backend: backend)
            state.sharedTerminal = UncheckedSendableBox(terminal)
            return (terminal, false)
        }
        if !isRepeatedCall {
            terminal.delegate = delegate
            terminal.offlineDelegate = offlineDelegate
            terminal.logLevel = logLevel
        }
        terminal.backend.initialize(
            terminal, tokenProvider: tokenProvider, delegate: delegate, offlineDelegate: offlineDelegate,
            logLevel: logLevel, isRepeatedCall: isRepeatedCall
        )
    }

    /// `Terminal.shared`: reading it before `initWithTokenProvider` is a programming error in the SDK, and here.
    static func sharedTerminal() -> Terminal {
        guard let terminal = state.withLock({ $0.sharedTerminal?.value }) else {
            preconditionFailure(
                "StripeTerminalSurface: Terminal.shared read before Terminal.initWithTokenProvider (a programming error in the SDK too)"
            )
        }
        return terminal
    }

    static var isTerminalInitialized: Bool {
        state.withLock { $0.sharedTerminal != nil }
    }

    static func setLogListener(_ listener: @escaping LogListenerBlock) {
        state.withLock { $0.logListener = UncheckedSendableBox(listener) }
    }
}
