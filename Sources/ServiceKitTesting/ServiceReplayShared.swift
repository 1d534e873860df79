// `VirtualClock` lives in ServiceReplayShared, where a replay server can use it too; a test that imports only this
// module still names it.
@_exported import ServiceReplayShared
