import Foundation
import StripeTerminalSurface
import StripeTerminalSurfaceBackend
import Testing

/// `NS_REFINED_FOR_SWIFT` imports two methods under `__` names, which no symbol graph shows. These references spell
/// each one's name, labels, parameter types, `throws` and result: if the mirror's declaration changes, this file stops
/// compiling. (`StripeSurfaceAllowances.checkedByTypedReference` lists the two for the comparison.)
@Suite struct HiddenMemberSignatureTests {
    @Test func refinedForSwiftMembersHaveTheImportedSignatures() {
        // func __clearCachedCredentials() throws
        let clear: (Terminal) -> () throws -> Void = Terminal.__clearCachedCredentials
        // func __supportsReaders(of deviceType: DeviceType, discoveryMethod: DiscoveryMethod, simulated: Bool) throws
        let supports: (Terminal) -> (DeviceType, DiscoveryMethod, Bool) throws -> Void =
            Terminal.__supportsReaders(of:discoveryMethod:simulated:)
        let names = [String(describing: type(of: clear)), String(describing: type(of: supports))]
        #expect(names == ["(Terminal) -> () throws -> ()", "(Terminal) -> (DeviceType, DiscoveryMethod, Bool) throws -> ()"])
    }
}
