// `import RemoteConfig` is enough for app code: keys, values, policies and ports come with it.
@_exported import ConfigDomain
@_exported import ConfigPorts
