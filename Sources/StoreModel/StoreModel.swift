/// Core Data store model. (issue 2)
public enum StoreModelNamespace {}
