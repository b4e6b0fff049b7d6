// `import RemoteConfigApp` is enough for an app: the client, keys, values and ports come with it.
@_exported import RemoteConfig
