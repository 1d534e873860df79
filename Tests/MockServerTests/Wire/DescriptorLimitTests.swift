import Foundation
import Testing
import ServiceReplayTestSupport

/// Suites run their servers in parallel and hold over a thousand descriptors; macOS shells allow 256, so the
/// test helpers raise the soft limit first (``DescriptorLimit``).
@Suite struct DescriptorLimitTests {
    @Test func softLimit_isRaisedToTheHardLimitOr10240() {
        DescriptorLimit.raise()
        let limits = DescriptorLimit.current
        #expect(limits.rlim_cur >= min(limits.rlim_max, 10240))
    }
}
