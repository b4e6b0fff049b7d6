// An app that links every library product: a client, and one type of each module, so none is left out.
import ConfigurationAdapter
import DefaultsAdapter
import EnvAdapter
import EtcdAdapter
import FileCacheAdapter
import FirebaseFormat
import FlagdFormat
import Foundation
import GrowthBookFormat
import HTTPAdapter
import HTTPSupport
import LoggingAdapter
import MetricsAdapter
import OFREPAdapter
import RemoteConfig
import RemoteConfigApp
import SSEAdapter
import ServiceContextAdapter
import ServiceLifecycleAdapter
import SigningAdapter
import Targeting
import TargetingFormat
import UnleashFormat

let newCheckout = ConfigKey("new_checkout", default: false)
let client = try RemoteConfigClient.builder(fetcher: try HTTPFetcher(url: URL(fileURLWithPath: "/")))
    .cache(FileSnapshotCache(directory: URL(fileURLWithPath: NSTemporaryDirectory() + "Everything")))
    .override(EnvironmentOverrideSource(prefix: "MYAPP_"))
    .register { newCheckout }
    .build()
let linked: [Any.Type] = [
    RemoteValue<Bool>.self, Condition.self, UserDefaultsOverrideSource.self, FirebaseTemplateFormat.self,
    TargetingJSONFormat.self, GrowthBookFormat.self, UnleashFormat.self, SSEChangeSignalSource.self, EtcdWatcher.self,
    Ed25519Verifier.self, RemoteConfigProvider.self, LoggingObserver.self, MetricsObserver.self, FlagdFormat.self,
    OFREPFetcher.self, SecretRedactor.self, ServiceContextSource.self, RemoteConfigService.self,
]
print(client[newCheckout], linked.count)
