/** The sample install's world layer: its registry (OBJL + SCRB + ONLS) and its script (SCRI v1). */
import { writeRegistry } from '../formats/registry/writer';
import type { RegistryWriterLayer } from '../formats/registry/writer';
import { writeScri } from '../formats/script/writer';

/**
 * The sample world layer (seed 001 "World parts", shaped like the four retail layers of
 * Patch_00.arch06): a `.bndl`/`.embb` pair whose container holds the layer's registry (`.objres`:
 * OBJL + SCRB + ONLS) and its script (`.scripts`, SCRI v1 source), in Base; a standalone patched
 * registry of the same path in Patch_02 (the patch rule: it replaces the one in the container).
 */
export const SAMPLE_LAYER = 'worlds\\retail\\sample\\sectionsandlayers\\fortgate';
export const SAMPLE_LAYER_REGISTRY = `${SAMPLE_LAYER}.objres`;
export const SAMPLE_LAYER_SCRIPT = `${SAMPLE_LAYER}.scripts`;

/** The layer's script in the retail files' style: hstructure prototypes, then one section table of bindings. */
export const SAMPLE_LAYER_SOURCE = `-- SCRIPTOBJECT PROTOTYPES (search for IMPLEMENTATION to get to the actual code)

hstructure _gatecontroller_SO_Script_6d1f0a42_meta
	__constructor : ifunction
	__index : _gatecontroller_SO_Script_6d1f0a42_meta
	Init : ifunction
	OpenGate : ifunction
	__eventmap : table
end
hstructure _gatecontroller_SO_Script_6d1f0a42_inst
	meta : _gatecontroller_SO_Script_6d1f0a42_meta
	scriptId : table
	lookupId : luserdata
	GateRelay : object
	OpenDelay : number
	IsOpen : boolean
end

-- IMPLEMENTATION
local section_5a3c9e21 = {
-- SC.Script (prefabs\\gameplay\\sample\\gatecontroller.prefab06c)
_gatecontroller_SC_Script_2f4e8a10 = function (self, threadId, scriptId)
	local Instance = scriptId.Instance
	local SO = ScriptObject.Create( scriptId, "SO"  )
		SO:Init()
end,
-- SO.Script (prefabs\\gameplay\\sample\\gatecontroller.prefab06c)
_gatecontroller_SO_Script_7b19c3d5 = hmake _gatecontroller_SO_Script_6d1f0a42_meta {
	__constructor = function ( parent, scriptId )
		local self = hmake _gatecontroller_SO_Script_6d1f0a42_inst {}
		setmetatable(self, parent)
		parent.__index = parent -- set the index metamethod on first construct because we couldn't earlier.
		self.scriptId=scriptId
		self.GateRelay = ScriptRelay.Create( self.scriptId, WBScriptPropString( self.scriptId, "GateRelay", "" ), true, false )
		self.OpenDelay = WBScriptPropFloat( self.scriptId, "OpenDelay", 5 )
		self.IsOpen = false
		-- event handlers defined in this script object.
		if (parent.__eventmap == nil) then
			parent.__eventmap = {}
			parent.__eventmap[0x19f44e0dhi] = {func = parent.OpenGate, name = "OpenGate"};
		end
		return self
	end,
	Init = function ( self )
		local Instance = self.scriptId.Instance
			WBEventSystem:Add( self.GateRelay, self.GateRelay.OnTrigger, { self.scriptId, self.lookupId, 0x19f44e0dhi } );

	end
,	OpenGate = function ( self, args )
		local Instance = self.scriptId.Instance
			if ( not self.IsOpen) then
		LithThreadSleep( args.threadId, self.OpenDelay )
		self.IsOpen = true
		GameConsole:ChannelDebug(DBOutputChannel.Design, "UI_Sample_GateOpen")
			end

	end
,},
-- SR.Script1 (prefabs\\gameplay\\sample\\gatealarm.prefab06c)
_gatealarm_SR_Script1_0c1d2e3f = function (self, threadId, scriptId)
	local Instance = scriptId.Instance
	local SR = ScriptRelay.Create( scriptId, "SR"  )
		LithThreadSleep( threadId, 2 )
		GameConsole:ChannelWarning(DBOutputChannel.Design, "UI_Sample_GateAlarm")
		SR:Trigger(GameBase.None)
end,
-- QR.Script1 (prefabs\\gameplay\\sample\\gatequest.prefab06c)
_gatequest_QR_Script1_48d7e0b6 = function (self, threadId, scriptId)
	local Instance = scriptId.Instance
	local Stage = 0x00000002a1f0c3d4hl
		if ((Stage ~= 0) and not System:IsDayTime()) then
		GameConsole:ChannelDebug(DBOutputChannel.Design, ("Gate quest stage " .. tostring(Stage)))
			end

end,
}
_G.loadedresource = section_5a3c9e21
`;

/** The layer's objects (OBJL), as the container's registry lists them. */
function sampleLayerObjects(patched: boolean): RegistryWriterLayer['objects'] {
  return [
    { className: 'WorldInitializer', name: 'WorldInitializer' },
    { className: 'WorldCollision', name: 'PhysicsBSP', propertyIndex: 1 },
    { className: 'StartupCommand', name: 'GateCon.SC', group: 'GateCon', propertyIndex: 2, position: [-1250, 310.5, 4075], templateId: 0x289e4ce3 },
    {
      className: 'ScriptObject',
      name: 'GateCon.SO',
      group: 'GateCon',
      propertyIndex: 3,
      // Patch_02 moves the gate controller 2 m along +x.
      position: patched ? [-1050, 310.5, 4075] : [-1250, 310.5, 4075],
      templateId: 0xf2f65363,
    },
    { className: 'ScriptRelay', name: 'GateAlarm_00.SR', group: 'GateAlarm_00', propertyIndex: 4, position: [-900, 296, 4210.25], templateId: 0x5e6dea28 },
    { className: 'ScriptRelay', name: 'GateAlarm_01.SR', group: 'GateAlarm_01', propertyIndex: 4, position: [-1600, 296, 4210.25], templateId: 0x5e6dea28 },
    {
      className: 'QuestRelay',
      name: 'GateQuest.QR',
      propertyIndex: 5,
      position: [-1250, 300, 3900],
      rotation: [0, 0.7071067690849304, 0, 0.7071067690849304],
      templateId: 0x0e1c3a57,
    },
    { className: 'Group', name: 'GateGuards', propertyIndex: 6, position: [-1250, 296, 4300], templateId: 0x110cc26d },
    { className: 'AINodeRoute', name: 'GateRoute_00.RN', position: [-1180, 296, 4420], templateId: 0xa6ebfce0 },
    // Patch_02 adds a third alarm relay, bound to the same function as the other two.
    ...(patched
      ? [
          {
            className: 'ScriptRelay',
            name: 'GateAlarm_02.SR',
            group: 'GateAlarm_02',
            propertyIndex: 4,
            position: [-1250, 296, 4500] as [number, number, number],
            templateId: 0x5e6dea28,
          },
        ]
      : []),
  ];
}

/** The layer's registry: the container's copy, or Patch_02's standalone one (one object moved, one added). */
export function sampleLayerRegistry(patched = false): Uint8Array {
  const alarm = [{ event: 'Script1', function: '_gatealarm_SR_Script1_0c1d2e3f' }];
  return writeRegistry({
    scriptPath: SAMPLE_LAYER_SCRIPT,
    hash: 0x5a3c9e21,
    objects: sampleLayerObjects(patched),
    bindings: [
      { name: 'GateCon.SC', bindings: [{ event: 'Script', function: '_gatecontroller_SC_Script_2f4e8a10' }] },
      { name: 'GateCon.SO', bindings: [{ event: 'Script', function: '_gatecontroller_SO_Script_7b19c3d5' }] },
      { name: 'GateAlarm_00.SR', bindings: alarm },
      { name: 'GateAlarm_01.SR', bindings: alarm },
      ...(patched ? [{ name: 'GateAlarm_02.SR', bindings: alarm }] : []),
      { name: 'GateQuest.QR', bindings: [{ event: 'Script1', function: '_gatequest_QR_Script1_48d7e0b6' }] },
    ],
    groups: [
      { owner: 'GateCon.SO', members: ['GateCon.SC'] },
      { owner: 'GateGuards', members: ['GateAlarm_00.SR', 'GateAlarm_01.SR', ...(patched ? ['GateAlarm_02.SR'] : [])] },
    ],
  });
}

/** The layer's script as it ships: SCRI v1, the source ending in one NUL byte. */
export function sampleLayerScript(): Uint8Array {
  return writeScri(SAMPLE_LAYER_SOURCE);
}
