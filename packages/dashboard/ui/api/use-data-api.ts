import { useMemo } from "preact/hooks";
import { useApp } from "../app-context.ts";
import { type DataApi, dataApi } from "./data.ts";

/**
 * The data studio's API for a screen: built from the signed-in transport
 * where it is used, so its route declarations load with the Data and
 * Functions screens, not with the first page.
 */
export function useDataApi(): DataApi {
  const { transport } = useApp();
  return useMemo(() => dataApi(transport), [transport]);
}
