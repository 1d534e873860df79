extension CassetteServer {
    /// The server of the test running in this task: set for the duration of the body by
    /// ``withMockServer(replaying:in:upstream:configuration:filePath:function:_:)`` and by the Swift Testing
    /// trait `.mockServer(...)`, so a test reads its base URL and journal here. `nil` outside them; child
    /// tasks inherit it, and parallel tests each see their own.
    @TaskLocal public static var current: CassetteServer?
}
