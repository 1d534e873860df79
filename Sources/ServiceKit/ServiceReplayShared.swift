// The facts ServiceKit and MockServer must agree on live once, in ServiceReplayShared. Its public types
// (`JSONPath`) are part of ServiceKit's API, so importing ServiceKit imports them.
@_exported import ServiceReplayShared
