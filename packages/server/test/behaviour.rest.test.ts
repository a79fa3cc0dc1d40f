import { sharedBehaviour } from "./behaviour.case.ts";
import { overRest } from "./transports.ts";

sharedBehaviour("rest", overRest);
