import { sharedBehaviour } from "./behaviour.case.ts";
import { overRpc } from "./transports.ts";

sharedBehaviour("rpc", overRpc);
