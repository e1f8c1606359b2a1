import StoreModel
/// Strategies. (issue 2)
public enum StrategiesNamespace {}
